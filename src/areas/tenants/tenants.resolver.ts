import { Arg, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Facility } from '../facilities/facilities.types';
import type { Tenant, Unit } from './tenants.types';
import type { TenantsService } from './tenants.service';
import type { GraphqlContext } from '../../graphql/context';
import { facilityOf } from '../../graphql/loaders';
import { FacilityObject } from '../facilities/facilities.graphql';
import { MoneyScalar, UUIDScalar } from '../../graphql/scalars';
import { centsToAmount } from '../../kernel/money';
import { TenantObject, UnitObject } from './tenants.graphql';

/** The services this file's resolvers call. */
interface ResolverServices {
  readonly tenants: TenantsService;
}

@Resolver(() => FacilityObject)
export class FacilityTenantsResolver {
  constructor(private readonly services: ResolverServices) {}

  @FieldResolver(() => TenantObject, {
    nullable: true,
    description: "One tenant of the facility (NOT_FOUND otherwise, also for another facility's).",
  })
  tenant(@Root() facility: Facility, @Arg('id', () => UUIDScalar) id: string): Promise<Tenant> {
    return this.services.tenants.tenantFor(facility, id, ['id']);
  }

  @FieldResolver(() => UnitObject, {
    nullable: true,
    description: "One unit of the facility (NOT_FOUND otherwise, also for another facility's).",
  })
  unit(@Root() facility: Facility, @Arg('id', () => UUIDScalar) id: string): Promise<Unit> {
    return this.services.tenants.unitFor(facility, id, ['id']);
  }
}

@Resolver(() => TenantObject)
export class TenantsResolver {
  @FieldResolver(() => String, { description: 'First and last name, as REST writes tenant_name.' })
  name(@Root() tenant: Tenant): string {
    return `${tenant.firstName} ${tenant.lastName}`;
  }

  @FieldResolver(() => FacilityObject)
  facility(@Root() tenant: Tenant, @Ctx() ctx: GraphqlContext): Promise<Facility> {
    return facilityOf(ctx, tenant, 'tenant');
  }
}

@Resolver(() => UnitObject)
export class UnitsResolver {
  @FieldResolver(() => MoneyScalar, { description: 'Monthly rate.' })
  rate(@Root() unit: Unit): number {
    return centsToAmount(unit.rateCents);
  }

  @FieldResolver(() => FacilityObject)
  facility(@Root() unit: Unit, @Ctx() ctx: GraphqlContext): Promise<Facility> {
    return facilityOf(ctx, unit, 'unit');
  }
}
