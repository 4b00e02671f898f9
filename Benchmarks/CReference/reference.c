int kbref_placeholder(void) { return 0; }
