import { readFileSync } from 'node:fs';
const t = JSON.parse(readFileSync('dist/mcp-tools.json','utf8')).tools.map(e=>e.tool);
const c={};
const walk=(o,p)=>{ if(Array.isArray(o)) return o.forEach(x=>walk(x,p)); if(o&&typeof o==='object') for(const [k,v] of Object.entries(o)){ if(['maximum','maxLength','maxItems','default','minimum','minItems','format','pattern'].includes(k)){const key=k+'='+JSON.stringify(v); c[key]=(c[key]||[]); c[key].push(p);} walk(v,p+'.'+k);} };
t.forEach(x=>walk(x.inputSchema,x.name));
for (const [k,v] of Object.entries(c)) console.log(v.length, k, v.slice(0,4).join(' '));
