// Integration tests talk to real servers (consumer-group joins, broker round trips): give each test room
// (a per-project testTimeout is not honoured by Jest).
jest.setTimeout(60_000);
