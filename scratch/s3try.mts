import { localS3 } from '../test/e2e/s3-server.ts';
const s3 = await localS3('lake');
console.log(JSON.stringify(s3.env));
process.on('SIGTERM', async () => { await s3.close(); process.exit(0); });
setInterval(() => {}, 1000);
