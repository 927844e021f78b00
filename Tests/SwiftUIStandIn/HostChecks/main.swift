// Runs FactoryKit's SwiftUI files in the stand-in host; see Harness.swift.

import FactoryKit
import Foundation
import SwiftUI

let checks = Checks()
subtreeScenarios(checks)
objectScenarios(checks)
initialValueScenarios(checks)
sceneAndPreviewScenarios(checks)
if checks.failures > 0 {
    print("\(checks.failures) expectation(s) failed")
    exit(1)
}
print("every scenario passed")
