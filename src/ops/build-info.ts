declare const __HUB_BUILD_ID__: string | undefined;
declare const __HUB_VERSION__: string | undefined;

/** Set by the bundler; `dev` when running from source, which also turns the manifest cache off. */
export const BUILD_ID: string = typeof __HUB_BUILD_ID__ === 'string' ? __HUB_BUILD_ID__ : 'dev';
export const HUB_VERSION: string = typeof __HUB_VERSION__ === 'string' ? __HUB_VERSION__ : '0.0.0-dev';

/** The npm package name of hub. */
export const PACKAGE_NAME = 'hub-workspace';
