// The names the test databases share with the global setup that makes their template.
export const ADMIN_EMAIL = 'admin@insightexchange.app';
export const ADMIN_PASSWORD = 'admin-test-password';
/** The migrated, seeded PostgreSQL database each test's fresh database is copied from. */
export const TEMPLATE_DATABASE = 't_template';
