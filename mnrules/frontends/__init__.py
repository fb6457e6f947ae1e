"""Where a person meets the kernel: the command line (cli), the terminal player
(terminal) and the web app (web)."""
