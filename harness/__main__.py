from harness.cli.launch import entry

entry()
