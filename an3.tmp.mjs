import { readFileSync } from 'node:fs';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
const t = JSON.parse(readFileSync('dist/mcp-tools.json','utf8')).tools.map(e=>e.tool);
const n = s=>encode(JSON.stringify({tools:s})).length;
const base=n(t);
const strip=(pred)=>{const f=(o)=>{ if(Array.isArray(o)) return o.map(f); if(o&&typeof o==='object'){const r={}; for(const [k,v] of Object.entries(o)){ if(pred(k,v)) continue; r[k]=f(v);} return r;} return o;}; return t.map(x=>({...x,inputSchema:f(x.inputSchema)}));};
for (const [name,p] of [
 ['maxLength all',(k,v)=>k==='maxLength'&&typeof v==='number'],
 ['maxLength>=200',(k,v)=>k==='maxLength'&&v>=200],
 ['maxLength>=100',(k,v)=>k==='maxLength'&&v>=100],
 ['maxItems>=50',(k,v)=>k==='maxItems'&&v>=50],
 ['maximum>=1000',(k,v)=>k==='maximum'&&v>=1000],
 ['pattern str',(k,v)=>k==='pattern'&&typeof v==='string'],
]) console.log(name, base-n(strip(p)));
