// End-to-end tests start real Vigil processes: give each test room (per-project testTimeout is not honoured).
jest.setTimeout(120_000);
