#if canImport(CoreDataPostgreSQL)
import Testing

/// The PostgreSQL suites, one at a time and each test in turn: they share one throwaway
/// server, which `PostgreSQLLiveChangeTests` stops and restarts.
@Suite(.serialized) enum PostgreSQLSuites {}
#endif
