import Foundation

/// Reads a child process's two output pipes.
public enum PipeDrain {
    /// Reads `stdout` and `stderr` to their ends at the same time (so the child cannot block on a
    /// full pipe) and returns both; blocks until the child closes them.
    public static func readToEnd(stdout: Pipe, stderr: Pipe) -> (stdout: Data, stderr: Data) {
        let errData = Box(Data())
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            let data = stderr.fileHandleForReading.readDataToEndOfFile()
            errData.withLock { $0 = data }
            group.leave()
        }
        let outData = stdout.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        return (outData, errData.snapshot)
    }
}
