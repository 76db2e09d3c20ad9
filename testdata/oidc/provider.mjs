// A real OpenID Connect provider on loopback for vurb's end-to-end test of
// vurb.WithBearerAuth and the oidc verifier: panva's oidc-provider, issuing
// JWT access tokens (RFC 9068) through the client credentials grant, for
// the resource named in the request's resource indicator (RFC 8707).
//
// Usage: node provider.mjs
// It listens on 127.0.0.1 on a free port and prints one JSON line,
// {"issuer": "http://127.0.0.1:PORT"}, once it answers. It runs until
// stdin closes (the test ends) or it is killed.
//
// Clients (client_secret_basic, secret = id + "-secret"):
//   alice, bob   tokens live 300 s
//   brief        tokens live 2 s, to be seen expire
// Every resource is accepted; the scopes a token may carry are
// projects:read and projects:write. A token request with a DPoP proof
// (RFC 9449) gets a DPoP-bound token: its cnf.jkt is the proof key's
// thumbprint, and its token_type "DPoP".
//
// POST /rotate replaces the provider with one whose signing key is new
// (the old key stays published, second, so tokens already issued still
// verify, as in a real rotation) and answers {"kid": NEW_KID}.
import http from 'node:http';
import crypto from 'node:crypto';
import Provider from 'oidc-provider';

const scopes = 'projects:read projects:write';
const clients = ['alice', 'bob', 'brief'].map((id) => ({
  client_id: id,
  client_secret: `${id}-secret`,
  grant_types: ['client_credentials'],
  redirect_uris: [],
  response_types: [],
  scope: scopes,
}));

function newKey() {
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: crypto.randomUUID(), alg: 'RS256', use: 'sig' };
}

function newProvider(issuer, keys) {
  const provider = new Provider(issuer, {
    clients,
    jwks: { keys },
    scopes: scopes.split(' '),
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      dPoP: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx, _client, oneOf) => oneOf,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource, client) => ({
          scope: scopes,
          audience: resource,
          accessTokenTTL: client.clientId === 'brief' ? 2 : 300,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
  });
  provider.on('server_error', (_ctx, err) => console.error('oidc-provider:', err));
  return provider;
}

let keys = [newKey()];
let current;
const server = http.createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/rotate') {
    keys = [newKey(), keys[0]];
    current = newProvider(issuer, keys).callback();
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ kid: keys[0].kid }));
    return;
  }
  current(req, res);
});
let issuer;
server.listen(0, '127.0.0.1', () => {
  issuer = `http://127.0.0.1:${server.address().port}`;
  current = newProvider(issuer, keys).callback();
  console.log(JSON.stringify({ issuer }));
});
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
