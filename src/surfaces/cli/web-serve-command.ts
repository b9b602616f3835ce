import type { Command } from 'commander';

/** `hub web serve` and `hub api serve` (the HTTP surface issue fills this in). */
export function addWebServeCommands(_program: Command): void {}
