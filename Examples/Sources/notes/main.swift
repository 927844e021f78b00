import Foundation
import NotesCore

// `notes`: everything happens in NotesCore; this file only hands over the command line.
let status = await NotesApp.run(
    Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
exit(status)
