int kbref_placeholder(void);
