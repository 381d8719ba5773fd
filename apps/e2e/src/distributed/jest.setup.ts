// The distributed suite starts Kafka, Redis and seven service processes per file, and waits out consumer-group
// session timeouts in its fault tests: give each hook and test room (a per-project testTimeout is not honoured).
jest.setTimeout(240_000);
