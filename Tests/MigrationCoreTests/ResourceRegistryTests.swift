import Foundation
import Testing
@testable import MigrationCore

/// Every store object on one resource gets the same ``StoreResource``; one keyed by an object's
/// identity lasts only as long as that object.
@Suite("ResourceRegistry")
struct ResourceRegistryTests {
    @Test func aKeyGetsOneResourceUntilItsOwnerIsGone() {
        let registry = ResourceRegistry()
        var made = 0
        func resource(_ key: String, _ owner: AnyObject?) -> StoreResource {
            registry.resource(key, owner: owner) {
                made += 1
                return StoreResource()
            }
        }
        var owner: NSObject? = NSObject()
        let owned = resource("defaults object 1", owner)
        #expect(resource("defaults object 1", owner) === owned)
        let file = resource("file:/tmp/state.json", nil)
        #expect(resource("file:/tmp/state.json", nil) === file)
        #expect(resource("file:/tmp/other.json", nil) !== file)
        owner = nil
        // A later object under the same key (say, at the same address) is another resource.
        let later = NSObject()
        #expect(resource("defaults object 1", later) !== owned)
        #expect(resource("defaults object 1", later) === resource("defaults object 1", later))
        #expect(resource("file:/tmp/state.json", nil) === file)
        #expect(made == 4)
    }

    @Test func storesOnOneUserDefaultsObjectShareOneResourceAndOthersDoNot() throws {
        let suite = "resource-registry-\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        let first = UserDefaultsMigrationStore(defaults: defaults)
        #expect(UserDefaultsMigrationStore(defaults: defaults).resource === first.resource)
        #expect(UserDefaultsMigrationStore(defaults: defaults, domain: "database").resource !== first.resource)
        #expect(UserDefaultsMigrationStore(suiteName: suite).resource === UserDefaultsMigrationStore(suiteName: suite).resource)
        #expect(UserDefaultsMigrationStore(suiteName: suite).resource !== first.resource)
    }
}
