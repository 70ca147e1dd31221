"""The command line: click commands kept thin over the use cases, and the reporters that render their results."""
