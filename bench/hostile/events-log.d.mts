import type { HostileCase } from './kit.mjs';
export const cases: HostileCase[];
