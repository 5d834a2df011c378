export const EXAMPLES_FOLDER: string;
export function readmeLibraryExamples(): string[];
export function writeReadmeExamples(): string[];
