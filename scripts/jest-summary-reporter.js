// Prints one plain closing line that CI reads ("tests: N passed, N failed, N skipped"),
// after jest's own summary, so a run that executed no test is visible at a glance.
export default class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    // A suite that crashed before its tests ran counts as one failure, not as nothing.
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    process.stderr.write(
      `\ntests: ${results.numPassedTests} passed, ${failed} failed, ${skipped} skipped\n`,
    );
  }
}
