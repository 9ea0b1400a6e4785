/**
 * A client borrowed from the PostgreSQL store's pool (postgres-stores.ts, postgres-namespace.ts),
 * kept from ending the process when its connection is lost while it is out.
 */
import type { Pool, PoolClient } from 'pg';

/**
 * A client of the pool, and how to give it back (`destroy`: not reused). A connection lost while
 * the client is checked out (the server stopped) fails the query under way, and the client emits
 * 'error' too: the pool listens only to idle clients, and an 'error' nobody listens to would end
 * the process, so one is listened to (and ignored: the query reports it) until it is given back.
 */
export async function borrow(pool: Pool): Promise<{ client: PoolClient; giveBack: (destroy: boolean) => void }> {
  const client = await pool.connect();
  client.on('error', ignore);
  return {
    client,
    giveBack: (destroy) => {
      client.removeListener('error', ignore);
      client.release(destroy);
    },
  };
}

const ignore = (): void => undefined;
