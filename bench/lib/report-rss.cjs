// Preloaded into a measured node process (NODE_OPTIONS=--require): at exit it writes the process's peak resident
// set (KiB, from getrusage) to the file HUB_BENCH_RSS_OUT names, so a benchmark can report a child's memory.
const out = process.env.HUB_BENCH_RSS_OUT;
if (out) {
  process.on('exit', () => {
    require('node:fs').appendFileSync(out, `${process.resourceUsage().maxRSS}\n`);
  });
}
