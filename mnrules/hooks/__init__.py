"""The rules bus and its contract: pluggy's hooks as the kernel calls them (bus), every
hook a game or plugin may answer (hookspecs), what each plugin declares it decides,
emits and changes (contract) and the parameters a pack may set (params)."""
