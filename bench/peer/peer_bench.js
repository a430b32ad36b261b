// The boardgame.io peer of bench/session_bench.py (issue #11): how fast boardgame.io 0.50.2 pushes
// a move to 7 subscribed socket.io clients on loopback, measured like our push.
//
//     node bench/peer/peer_bench.js [--moves 100] [--clients 7]
//
// The boardgame.io server runs in a child process on a free 127.0.0.1 port (in-memory storage: it
// keeps nothing durable; the match is set up at the first client's sync), with a trivial game: one counter, one move that bumps it. The move runs
// on the server only (`client: false`), so no client holds the result before the server sent it,
// as with our server, which commits before it pushes. The parent process connects `--clients`
// boardgame.io clients (the socket.io transport); client 0 makes the moves, one at a time. For each
// move: the time from the call to the moment every client holds the new state. Prints one line of
// JSON with p50/p95/max in ms, so bench/session_bench.py can read it.
"use strict";

const { fork } = require("child_process");
const net = require("net");

const Game = {
  name: "bench",
  setup: () => ({ n: 0 }),
  moves: { bump: { move: ({ G }) => { G.n += 1; }, client: false } },
};

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : process.argv[i + 1];
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => { const { port } = srv.address(); srv.close(() => resolve(port)); });
    srv.on("error", reject);
  });
}

function pct(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.round(q * (sorted.length - 1)))];
}

async function serve(port) {
  const { Server, Origins } = require("boardgame.io/server");
  const server = Server({ games: [Game], origins: [Origins.LOCALHOST] });
  const listen = server.app.listen; // koa-socket-2's: it listens on all interfaces unless told a host
  server.app.listen = (p, callback) => listen.call(server.app, p, "127.0.0.1", callback);
  await server.run({ port, callback: () => process.send && process.send("ready") });
}

async function bench() {
  const moves = Number(arg("--moves", 100));
  const count = Number(arg("--clients", 7));
  const port = await freePort();
  const child = fork(__filename, ["--serve", String(port)], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
  try {
    await new Promise((resolve, reject) => {
      child.once("message", resolve);
      child.once("exit", (code) => reject(new Error(`the boardgame.io server exited (${code})`)));
    });
    const base = `http://127.0.0.1:${port}`;
    const matchID = "bench"; // the server sets a match up at its first sync (no lobby, no credentials)
    const { Client } = require("boardgame.io/client");
    const { SocketIO } = require("boardgame.io/multiplayer");
    const waiting = new Map(); // client index -> resolve(n)
    const clients = [];
    for (let i = 0; i < count; i += 1) {
      const client = Client({ game: Game, numPlayers: count, matchID, playerID: String(i),
        multiplayer: SocketIO({ server: base }), debug: false });
      client.subscribe((state) => {
        if (state && waiting.has(i)) waiting.get(i)(state.G.n);
      });
      client.start();
      clients.push(client);
    }
    // every client synced with the match before the first move
    await Promise.all(clients.map((c) => new Promise((resolve) => {
      const tick = () => (c.getState() && c.getState().G ? resolve() : setTimeout(tick, 10));
      tick();
    })));
    const latencies = [];
    for (let m = 1; m <= moves; m += 1) {
      const arrived = clients.map((c, i) => new Promise((resolve) => {
        waiting.set(i, (n) => { if (n >= m) { waiting.delete(i); resolve(performance.now()); } });
      }));
      const sent = performance.now();
      clients[0].moves.bump();
      const times = await Promise.all(arrived);
      latencies.push(Math.max(...times) - sent);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    clients.forEach((c) => c.stop());
    const r = (x) => Math.round(x * 100) / 100;
    console.log(JSON.stringify({ peer: "boardgame.io " + require("boardgame.io/package.json").version,
      clients: count, moves, p50_ms: r(pct(latencies, 0.5)), p95_ms: r(pct(latencies, 0.95)),
      max_ms: r(Math.max(...latencies)) }));
  } finally {
    child.kill();
  }
}

if (process.argv.includes("--serve")) {
  serve(Number(arg("--serve", "0")));
} else {
  bench().then(() => process.exit(0), (err) => { console.error(err); process.exit(1); });
}
