import Foundation
import ThrowawayPostgresServer

// Starts this process's throwaway PostgreSQL server, prints its port, then waits to be killed:
// a test kills it with SIGKILL and checks that the server and its folder go with it.
do {
    FileHandle.standardOutput.write(Data("\(try ThrowawayPostgres.shared().port)\n".utf8))
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
while true { pause() }
