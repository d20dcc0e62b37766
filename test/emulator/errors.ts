/** The platform's error body and the codes the emulator answers with. */
export const MORE_INFO = 'https://docs.sevenbridges.com/docs/api-status-codes';

export interface ErrorBody {
  status: number;
  code: number;
  message: string;
  more_info: string;
}

export class ApiError extends Error {
  /** The record of the write it refused, when the emulator keeps one (marked if the refusal's answer is lost). */
  received?: { responseLost?: boolean; responseMalformed?: boolean };

  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }

  body(): ErrorBody {
    return errorBody(this.status, this.code, this.message);
  }
}

export function errorBody(status: number, code: number, message: string): ErrorBody {
  return { status, code, message, more_info: MORE_INFO };
}

export const badRequest = (message: string, code = 90000): ApiError => new ApiError(400, code, message);
export const notFound = (message: string, code = 90003): ApiError => new ApiError(404, code, message);
