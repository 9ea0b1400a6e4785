// A small end-to-end script against the Petstore at $API: what a front end's tests would do.
// Each step must get the status it expects; the proxy in front judges the answers' bodies.
const api = process.env.API ?? 'http://127.0.0.1:4010';
const headers = { Authorization: `Bearer ${process.env.TOKEN ?? 'petstore-demo-key'}`, 'Content-Type': 'application/json' };

async function step(method, path, expected, body) {
  const response = await fetch(`${api}${path}`, { method, headers, body: body && JSON.stringify(body) });
  const text = await response.text();
  if (response.status !== expected) throw new Error(`${method} ${path}: ${response.status}, expected ${expected}: ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : undefined;
}

await step('GET', '/pets?limit=5', 200);
const pet = await step('POST', '/pets', 201, { name: 'Smoke', categoryId: 1 });
await step('GET', `/pets/${pet.id}`, 200);
await step('PATCH', `/pets/${pet.id}`, 200, { status: 'pending' });
await step('GET', '/store/inventory?limit=3', 200);
await step('DELETE', `/pets/${pet.id}`, 204);
await step('GET', `/pets/${pet.id}`, 404);
console.log('smoke: 7 steps passed');
