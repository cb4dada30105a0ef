/// <reference types="vite/client" />

/** The commit the dashboard was built from (`git rev-parse --short HEAD`), or null outside a checkout. */
declare const __SCAN_COMMIT__: string | null;
