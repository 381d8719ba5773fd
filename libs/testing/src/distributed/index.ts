export { DistributedCluster, type ClusterOptions, type RequestInit } from './cluster';
export { startLocalKafka, startLocalRedis, type LocalKafka, type LocalServer } from './local-servers';
export { serviceForPath } from './routing';
export { ServiceProcess, type ServiceApp, type ServiceSpec } from './service-process';
