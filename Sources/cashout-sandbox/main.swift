import Glibc
import SandboxCLI

exit(CLI.run(Array(CommandLine.arguments.dropFirst())))
