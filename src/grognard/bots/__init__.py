"""Players that work for any rule set through the engine protocol."""
