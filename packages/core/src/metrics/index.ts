export { type AdminLogin, checkBasicAuth } from './basic-auth.ts';
export { BusProbe, type BusProbeOptions } from './bus-probe.ts';
export { type MetricsAnswer, MetricsEndpoint } from './endpoint.ts';
export { createServiceRegistry, type HttpLatencyLabels, httpLatencyHistogram } from './registry.ts';
