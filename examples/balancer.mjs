// A round-robin load balancer in a few lines of Node, for trying replicas on one machine (the
// tests and the bench use it; in production use your platform's: nginx, HAProxy, a Kubernetes
// Service). docs/replicas.md shows it with two replicas.
//
//   node examples/balancer.mjs 4010 http://127.0.0.1:4011 http://127.0.0.1:4012
//
// A replica that refuses the connection (stopped, restarting) is skipped and the request sent to
// the next; a request a replica has begun to receive is never sent twice (it may have written).
import { createServer, request, Agent } from 'node:http';

const [port = '4010', ...upstreams] = process.argv.slice(2);
if (upstreams.length === 0) {
  process.stderr.write('usage: node examples/balancer.mjs PORT URL [URL...]\n');
  process.exit(2);
}
const targets = upstreams.map((url) => new URL(url));
const agent = new Agent({ keepAlive: true, maxSockets: 256 });
let next = 0;

const server = createServer((req, res) => {
  const body = [];
  req.on('data', (chunk) => body.push(chunk));
  req.on('end', () => send(req, res, Buffer.concat(body), 0));
});

function send(req, res, body, tried) {
  const target = targets[next++ % targets.length];
  const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
    res.writeHead(answer.statusCode, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', (error) => {
    // Refused before anything was sent: the next replica may take it.
    if (error.code === 'ECONNREFUSED' && tried + 1 < targets.length) return send(req, res, body, tried + 1);
    if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ code: 'BAD_GATEWAY', message: `No replica answered: ${error.code ?? error.message}.` }));
  });
  upstream.end(body);
}

server.listen(Number(port), '127.0.0.1', () => process.stdout.write(`balancing http://127.0.0.1:${server.address().port} over ${upstreams.join(', ')}\n`));
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => server.close(() => process.exit(0)));
