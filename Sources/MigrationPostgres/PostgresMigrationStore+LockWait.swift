import MigrationCore

extension PostgresMigrationStore {
    /// A store that waits up to `lockWait` (`nil`: as long as it takes) for a lock another
    /// process holds.
    ///
    /// ```swift
    /// let store = PostgresMigrationStore(server: server, lockPatience: .upTo(.seconds(30)))   // rather than lockWait: .seconds(30)
    /// ```
    @available(*, deprecated, message: "use init(server:schema:domain:lockPatience:onWait:), the patience every store takes")
    public convenience init(server: PostgresServer, schema: PostgresSchemaName = .default, domain: String = defaultDomain,
                            lockWait: Duration?, onWait: (@Sendable ([PostgresLockHolder]) -> Void)? = nil) {
        self.init(server: server, schema: schema, domain: domain, lockPatience: lockWait.map(LockPatience.upTo) ?? .forever, onWait: onWait)
    }

    /// A store on the database a libpq-style URL names, that waits up to `lockWait`.
    ///
    /// ```swift
    /// let store = try PostgresMigrationStore(url: databaseURL, lockPatience: .noWait)   // rather than lockWait: .zero
    /// ```
    /// - Throws: ``PostgresURLError`` for a URL that is not one.
    @available(*, deprecated, message: "use init(url:password:schema:domain:lockPatience:onWait:), the patience every store takes")
    public convenience init(url: String, password: String? = nil, schema: PostgresSchemaName = .default, domain: String = defaultDomain,
                            lockWait: Duration?, onWait: (@Sendable ([PostgresLockHolder]) -> Void)? = nil) throws(PostgresURLError) {
        self.init(server: try PostgresServer(url: url, password: password), schema: schema, domain: domain,
                  lockPatience: lockWait.map(LockPatience.upTo) ?? .forever, onWait: onWait)
    }

    /// How long the store waits for a lock another process holds; `nil`: as long as it takes.
    @available(*, deprecated, message: "use lockPatience, the patience every store takes")
    public var lockWait: Duration? { lockPatience.limit }
}
