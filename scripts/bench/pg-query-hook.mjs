/**
 * Loaded with `node --import` into a server under measurement (bench-issuance.ts): the text of every query its `pg`
 * clients send, with the technique of test/e2e/oidc-login-round-trips.e2e-spec.ts (pg.Client.prototype.query
 * wrapped; TypeORM's pool and the service's own clients are pg.Client subclasses). GET /__pg-queries/on starts
 * recording, /__pg-queries/off stops and answers the texts as JSON; neither reaches the application.
 */
import http from 'node:http';
import pg from 'pg';

let recording = false;
const seen = [];

const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (...args) {
  if (recording) {
    const first = args[0];
    seen.push(typeof first === 'string' ? first : (first?.text ?? ''));
  }
  return query.apply(this, args);
};

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, req, res) {
  if (event === 'request' && req.url.startsWith('/__pg-queries/')) {
    recording = req.url.endsWith('/on');
    res.end(JSON.stringify(recording ? [] : seen));
    seen.length = 0;
    return true;
  }
  return emit.apply(this, arguments);
};
