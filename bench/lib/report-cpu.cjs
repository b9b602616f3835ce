// Preloaded into a measured node process (NODE_OPTIONS=--require): at exit it writes the CPU time the process used
// (user + system, in ms, from getrusage) to the file HUB_BENCH_CPU_OUT names, so a benchmark can report a child's CPU.
const out = process.env.HUB_BENCH_CPU_OUT;
if (out) {
  process.on('exit', () => {
    const u = process.resourceUsage();
    require('node:fs').appendFileSync(out, `${(u.userCPUTime + u.systemCPUTime) / 1000}\n`);
  });
}
