import { readFileSync } from 'node:fs';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
const t = JSON.parse(readFileSync('dist/mcp-tools.json','utf8')).tools.map(e=>e.tool);
const c={};
const walk=(o,p)=>{ if(Array.isArray(o)) return o.forEach(x=>walk(x,p)); if(o&&typeof o==='object') for(const [k,v] of Object.entries(o)){ if(k==='description'&&typeof v==='string'){c[v]=c[v]||{n:0,tok:encode(v).length,at:[]}; c[v].n++; c[v].at.push(p);} else walk(v,k==='properties'?p:p+'.'+k);} };
t.forEach(x=>walk(x.inputSchema,x.name));
const rows=Object.entries(c).map(([k,v])=>({k,...v,total:v.n*(v.tok+4)})).sort((a,b)=>b.total-a.total);
let sum=0; for(const r of rows) sum+=r.total; console.log('argdesc total',sum, 'count', rows.length);
for (const r of rows.slice(0,+process.argv[2]||60)) console.log(r.total, r.n, r.tok, JSON.stringify(r.k), r.at.slice(0,3).join(' '));
