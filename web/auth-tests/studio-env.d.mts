export const pg: string;
export const env: NodeJS.ProcessEnv;
