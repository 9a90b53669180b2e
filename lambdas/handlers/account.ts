/** Placeholder: replaced by the real account handler (Powertools Router over the route table). */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';

export async function handler(_event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  return { statusCode: 501, body: JSON.stringify({ code: 'NOT_IMPLEMENTED', message: 'not implemented', requestId: '' }) };
}
