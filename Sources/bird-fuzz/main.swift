// bird-fuzz: libFuzzer harnesses for the project's parsers (the table is in Harness.swift).
// Built by Scripts/fuzz with -sanitize=fuzzer,address and -DFUZZING; a plain build explains itself.
import Foundation

func printError(_ text: String) {
    FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
}

let arguments = CommandLine.arguments
let usage = """
    usage: bird-fuzz HARNESS [libFuzzer flags] [CORPUS_DIR | INPUT_FILE...]
           bird-fuzz --list        (the harness names, one a line)
    harnesses: \(FuzzHarness.all.map(\.name).joined(separator: ", "))
    Normally run through Scripts/fuzz HARNESS [SECONDS] (or Scripts/fuzz all); given input files
    instead of a corpus directory, it runs just those (to reproduce a crash).
    """
let buildHint = """
    Build it with libFuzzer (what Scripts/fuzz does):
      swift build -c release --scratch-path .build/fuzz --product bird-fuzz \\
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld -Xswiftc -DFUZZING
    """

switch arguments.dropFirst().first {
case "-h", "--help":
    print(usage)
    exit(0)
case "--list":
    for harness in FuzzHarness.all { print(harness.name) }
    exit(0)
default:
    break
}

#if FUZZING
    guard arguments.count >= 2, let harness = FuzzHarness.named(arguments[1]) else {
        printError((arguments.count >= 2 ? "bird-fuzz: unknown harness '\(arguments[1])'\n" : "") + usage)
        exit(2)
    }

    /// libFuzzer's driver: parses libFuzzer flags from argv and runs `callback` until done.
    @_silgen_name("LLVMFuzzerRunDriver")
    func LLVMFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: FuzzEntry
    ) -> Int32

    /// libFuzzer's runtime library also carries a `main` that references this symbol, so the link
    /// needs it; SwiftPM's `--defsym main=bird_fuzz_main` makes our main the real one, and the driver
    /// is handed `harness.entry` directly. Should libFuzzer's own main ever run, it says so and stops.
    @_cdecl("LLVMFuzzerTestOneInput")
    func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        printError("bird-fuzz: libFuzzer's main ran instead of bird-fuzz's; run it as `bird-fuzz HARNESS ...`")
        abort()
    }

    // libFuzzer sees argv without the harness name (it would take it for a corpus directory), with the
    // harness's default flags first so the command line can override them.
    let driverArguments = [arguments[0]] + harness.defaultFlags + arguments.dropFirst(2)
    var argc = Int32(driverArguments.count)
    let argvBuffer = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: driverArguments.count + 1)
    for (i, argument) in driverArguments.enumerated() { argvBuffer[i] = strdup(argument) }
    argvBuffer[driverArguments.count] = nil
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argvBuffer
    exit(LLVMFuzzerRunDriver(&argc, &argv, harness.entry))
#else
    printError(
        "bird-fuzz: this binary was built without libFuzzer; run Scripts/fuzz HARNESS [SECONDS].\n" + buildHint + "\n"
            + usage)
    exit(2)
#endif
