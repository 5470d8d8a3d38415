import Glibc

exit(CLI.run(Array(CommandLine.arguments.dropFirst())))
