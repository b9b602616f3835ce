import picomatch from 'picomatch';
const O = { dot: true, posix: true, strictBrackets: true, windows: false };
const [p, ...paths] = process.argv.slice(2);
const re = picomatch.makeRe(p, O, false, true);
console.log(re.source);
for (const x of paths) console.log(JSON.stringify(x), picomatch.isMatch(x, p, O), re.test(x));
