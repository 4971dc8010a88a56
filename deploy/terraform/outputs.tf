output "broker_url" {
  description = "The broker's HTTP SQL endpoint (POST /query/sql), reachable from allowed_cidrs."
  value       = "http://${module.network.coordinator_private_ip}:${var.broker_http_port}"
}

output "jdbc_url" {
  description = "Arrow Flight SQL JDBC URL of the broker, reachable from allowed_cidrs (add user and password, or token, as the security config requires)."
  value       = "jdbc:arrow-flight-sql://${module.network.coordinator_private_ip}:${var.broker_flight_port}/?useEncryption=false"
}

output "controller_admin_url" {
  description = "The controller's admin API (POST /tables), reachable from cluster members only: from a workstation, through an SSM port forward to the coordinator (docs/deploy.md)."
  value       = "http://${module.network.coordinator_private_ip}:${var.controller_http_port}"
}

output "zookeeper_connect" {
  description = "The ZooKeeper connect string every member was given."
  value       = local.zookeeper_connect
}

output "coordinator_private_ip" {
  description = "Private IPv4 address of the coordinator."
  value       = module.network.coordinator_private_ip
}

output "server_private_ips" {
  description = "Private IPv4 addresses of the servers, in server order."
  value       = module.servers.private_ips
}

output "instance_ids" {
  description = "EC2 instance IDs, for SSM Session Manager (aws ssm start-session --target <id>)."
  value = {
    coordinator = module.coordinator.instance_id
    servers     = module.servers.instance_ids
  }
}

output "node_role_name" {
  description = "Name of the IAM role the members use (to grant it more, e.g. in a KMS key or bucket policy)."
  value       = module.iam.role_name
}

output "vpc_id" {
  description = "The VPC the cluster runs in (created or given)."
  value       = module.network.vpc_id
}

output "cluster_security_group_id" {
  description = "Security group of every member."
  value       = module.network.cluster_security_group_id
}
