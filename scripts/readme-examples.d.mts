export function readmeLibraryExamples(): string[];
