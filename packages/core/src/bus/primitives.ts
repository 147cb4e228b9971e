/** The field shapes every bus message is made of (units: see messages.ts). */
import { z } from 'zod';

export const count = z.number().int().nonnegative();
export const epochMs = z.number().int().nonnegative();
export const seconds = z.number().nonnegative();
export const id = z.number().int().positive();
export const mountName = z.string().startsWith('/');
