import { encode } from 'gpt-tokenizer/encoding/o200k_base';
for (const s of process.argv.slice(2)) console.log(encode(JSON.stringify(s)).length, s);
