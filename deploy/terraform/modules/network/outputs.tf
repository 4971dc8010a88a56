output "vpc_id" {
  description = "The VPC the cluster runs in."
  value       = local.vpc_id
}

output "subnet_ids" {
  description = "The private subnets the members run in."
  value       = local.subnet_ids
}

output "cluster_security_group_id" {
  description = "Security group of every member (internal ports between members only)."
  value       = aws_security_group.cluster.id
}

output "clients_security_group_id" {
  description = "Security group of the coordinator's client ports."
  value       = aws_security_group.clients.id
}

output "coordinator_network_interface_id" {
  description = "The coordinator's primary network interface."
  value       = aws_network_interface.coordinator.id
}

output "coordinator_private_ip" {
  description = "The coordinator's private IPv4 address (fixed for the life of its network interface)."
  value       = aws_network_interface.coordinator.private_ip
}
