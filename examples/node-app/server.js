// node-app: a small Node.js service on node-postgres, the way Node services take their pool size: pg.Pool's
// `max`, from a variable of the app's own (PG_POOL_MAX here; node-postgres reads no size from its URL). It opens its
// pool at start, serves /healthz, /pool (the pool's own figures) and /work?ms=N, and ends its pool on SIGTERM.
// PoolBudget sizes it with mode EnvFrom: PG_POOL_MAX refers to $(POOLBUDGET_MAX_POOL_SIZE).
'use strict';
const http = require('http');
const { Pool } = require('pg');

const max = Number(process.env.PG_POOL_MAX || 10); // node-postgres' own default is 10
if (!Number.isInteger(max) || max < 1) {
  // a literal $(POOLBUDGET_MAX_POOL_SIZE) left in the variable ends here: the pod does not start
  console.error(`PG_POOL_MAX must be a whole number, got ${JSON.stringify(process.env.PG_POOL_MAX)}`);
  process.exit(1);
}
// idleTimeoutMillis 0: the pool keeps its connections, as a busy service's pool does
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max, idleTimeoutMillis: 0 });

async function warm() {
  const clients = await Promise.all(Array.from({ length: max }, () => pool.connect()));
  clients.forEach((c) => c.release());
}

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, 'http://localhost');
  if (url.pathname === '/healthz') {
    res.end('ok\n');
  } else if (url.pathname === '/pool') {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ max: pool.options.max, totalCount: pool.totalCount, idleCount: pool.idleCount }));
  } else if (url.pathname === '/work') {
    try {
      await pool.query('select pg_sleep($1)', [Number(url.searchParams.get('ms') || 0) / 1000]);
      res.end('done\n');
    } catch (e) {
      res.statusCode = 503;
      res.end(`${e.message}\n`);
    }
  } else {
    res.statusCode = 404;
    res.end();
  }
});

warm().then(() => {
  console.log(`pool open: max=${max}`);
  server.listen(8080);
}).catch((e) => {
  console.error(`could not open ${max} connections: ${e.message}`);
  process.exit(1);
});

process.on('SIGTERM', () => {
  server.close();
  pool.end().then(() => {
    console.log('pool closed');
    process.exit(0);
  });
});
