/* The passkeys module's public face (issue 49): all that others may import; the rest of the folder is its own. */
