import { readFileSync } from 'node:fs';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
const t = JSON.parse(readFileSync(process.argv[2]||'dist/mcp-tools.json','utf8')).tools.map(e=>e.tool);
const n = s=>encode(s).length;
console.log('total', n(JSON.stringify({tools:t})));
const rows = t.map(x=>({name:x.name, tok:n(JSON.stringify(x)), desc:n(x.description), schema:n(JSON.stringify(x.inputSchema)), ann:n(JSON.stringify(x.annotations))}));
rows.sort((a,b)=>b.tok-a.tok);
for (const r of rows.slice(0,+process.argv[3]||40)) console.log(r.tok, r.desc, r.schema, r.ann, r.name);
// keyword stats
const kw = {}; 
const walk=(o)=>{ if(Array.isArray(o)) return o.forEach(walk); if(o&&typeof o==='object') for(const [k,v] of Object.entries(o)){ kw[k]=(kw[k]||0)+1; walk(v);} };
t.forEach(x=>walk(x.inputSchema)); console.log(kw);
let descTok=0, annTok=0; for (const x of t){descTok+=n(x.description); annTok+=n(JSON.stringify(x.annotations));} console.log('desc',descTok,'ann',annTok);
