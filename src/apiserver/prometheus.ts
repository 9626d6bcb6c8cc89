// The prom-client classes the API server's metrics use, each from its own module. The package's
// index also loads its Pushgateway, cluster aggregation and default metrics, and with them node's
// cluster, child_process, dgram, dns and zlib: start-up work for nothing Drydock uses.
export { default as Counter } from 'prom-client/lib/counter.js';
export { default as Gauge } from 'prom-client/lib/gauge.js';
export { default as Histogram } from 'prom-client/lib/histogram.js';
export { default as Registry } from 'prom-client/lib/registry.js';
