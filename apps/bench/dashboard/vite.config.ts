import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// Reports are written to <repo>/bench-results/; serving that folder as the public directory makes
// `?report=/report-….json` work, and /reports.json lists what is there.
const reports = fileURLToPath(new URL('../../../bench-results/', import.meta.url));

export default defineConfig({
  publicDir: reports,
  plugins: [
    {
      name: 'list-bench-reports',
      configureServer(server) {
        server.middlewares.use('/reports.json', (_req, res) => {
          let names: string[] = [];
          try {
            names = readdirSync(reports)
              .filter((f) => f.endsWith('.json'))
              .sort()
              .reverse();
          } catch {
            // No bench-results folder yet.
          }
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify(names));
        });
      },
    },
  ],
});
