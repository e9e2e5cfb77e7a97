// Issue 17 item 7: NO_COLOR and --theme mono|default.

import Foundation
import Testing

@testable import BirdInspector

@Suite("Colours: NO_COLOR and --theme")
struct ThemeArgumentsTests {
    func options(_ args: [String], _ env: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation)
        -> InspectorOptions?
    {
        guard case .success(.run(let o)) = Arguments.parse(args + ["--sandbox"], environment: env) else {
            Issue.record("\(args) \(env) did not parse", sourceLocation: sourceLocation)
            return nil
        }
        return o
    }

    @Test("colours by default; NO_COLOR set and not empty means mono (no colour at all)")
    func noColor() {
        #expect(options([])?.colours == true)
        #expect(options([], ["NO_COLOR": ""])?.colours == true)
        #expect(options([], ["NO_COLOR": "1"])?.colours == false)
        #expect(options([], ["NO_COLOR": "anything"])?.theme == "mono")
    }

    @Test("--theme wins over NO_COLOR; BIRD_THEME too; a bad theme is refused")
    func themeFlag() {
        #expect(options(["--theme", "default"], ["NO_COLOR": "1"])?.colours == true)
        #expect(options(["--theme=mono"])?.colours == false)
        #expect(options([], ["NO_COLOR": "1", "BIRD_THEME": "default"])?.colours == true)
        guard case .failure(let error) = Arguments.parse(["--theme", "dark"], environment: [:]) else {
            Issue.record("--theme dark was accepted")
            return
        }
        #expect(error.message.contains("default or mono"), "\(error.message)")
        #expect(Arguments.usage.contains("--theme default|mono"))
    }
}
