// A real OpenID Connect provider (the npm package oidc-provider) for the sign-in tests.
//
// Its development login page takes any login name: the name becomes the account's subject, and
// the account's email is that name when it holds an "@", else <name>@example.org. One client is
// registered, for the app's redirect URI. Everything comes from the environment (a secret never
// sits on a command line): OIDC_MODULE (the package's lib/index.js), OIDC_PORT, OIDC_CLIENT_ID,
// OIDC_CLIENT_SECRET, OIDC_REDIRECT_URI, OIDC_POST_LOGOUT_URIS (space-separated), OIDC_COOKIE_KEY.
// It prints "listening" once it answers, and stops on SIGTERM.

import { pathToFileURL } from "node:url";

const env = process.env;
const { default: Provider } = await import(pathToFileURL(env.OIDC_MODULE).href);
const issuer = `http://127.0.0.1:${env.OIDC_PORT}`;

function account(id) {
  const email = id.includes("@") ? id : `${id}@example.org`;
  return {
    accountId: id,
    async claims() {
      return { sub: id, email, email_verified: true, name: id };
    },
  };
}

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: env.OIDC_CLIENT_ID,
      client_secret: env.OIDC_CLIENT_SECRET,
      redirect_uris: [env.OIDC_REDIRECT_URI],
      post_logout_redirect_uris: env.OIDC_POST_LOGOUT_URIS.split(" "),
      response_types: ["code"],
      grant_types: ["authorization_code"],
    },
  ],
  claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
  // The scopes' claims (email) in the ID token itself, as Google's or Microsoft's are: Streamlit
  // reads the user from the ID token, not from the userinfo endpoint.
  conformIdTokenClaims: false,
  cookies: { keys: [env.OIDC_COOKIE_KEY] },
  findAccount: async (_ctx, id) => account(id),
  features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
  // Short-lived tokens are not what these tests are about; Streamlit keeps its own cookie.
  ttl: { IdToken: 3600, AccessToken: 3600, Session: 3600, Interaction: 3600, Grant: 3600 },
});
// The development interactions warn on every start; the tests read this process's output.
provider.on("server_error", (_ctx, error) => console.error("server_error", error));

const server = provider.listen(Number(env.OIDC_PORT), "127.0.0.1", () => console.log("listening"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
