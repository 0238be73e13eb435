// The web dashboard of a fleet: one live page for every request queue on the Redis.
export { startDashboard, type DashboardHandle, type DashboardOptions } from './start-dashboard.js';
